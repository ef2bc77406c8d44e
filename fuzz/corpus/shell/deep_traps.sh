trap 'echo exit $?' EXIT
trap 'echo err $LINENO' ERR
false
f() { return 3; }; trap 'echo ret' RETURN; f; trap - RETURN
trap 'echo dbg $BASH_COMMAND' DEBUG; x=1; trap - DEBUG
trap 'echo usr1; trap - USR1; kill -USR1 $$' USR1; kill -USR1 $$
( trap 'echo sub-exit' EXIT; exit 4 ); echo $?

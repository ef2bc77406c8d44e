f() { (( $1 > 0 )) && f $(( $1 - 1 )); echo -n "$1 "; }; f 30; echo
even() { (( $1 == 0 )) && return 0; odd $(( $1 - 1 )); }; odd() { (( $1 == 0 )) && return 1; even $(( $1 - 1 )); }; even 40; echo $?
g() { g "$@" x; }; g
h() { local v=$1; [ ${#v} -gt 20 ] && return; h "$v$v"; }; h a; echo done

bash -c 'bash -c "bash -c \"echo deep; exit 3\""; echo $?'
sh -c 'echo $0 $1' zero one
f='echo lvl $1; [ $1 -lt 40 ] && bash -c "$f" - $(($1+1))'; export f; bash -c "$f" - 0 | tail -1

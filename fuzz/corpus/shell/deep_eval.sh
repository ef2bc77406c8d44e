eval 'eval "eval \"echo \\$((1+2))\""'
for i in 1 2 3; do eval "v$i=\$i"; done; eval echo '$v'{1,2,3}
e='echo ${#e}; eval "$e"'; eval "$e" | tail -1
eval 'f() { echo from eval; }'; f
eval "$(printf 'echo %s;' {1..200})" | wc -l

{ echo bg; } & wait $!; echo $?
for i in {1..50}; do true & done; wait; jobs; echo ok
f() { f & f; }; f 2>/dev/null; wait

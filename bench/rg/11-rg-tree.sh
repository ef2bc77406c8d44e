rg -n TODO src | wc -l
rg -l -t c TODO src | wc -l
rg -c -w -i 'todo' src | wc -l

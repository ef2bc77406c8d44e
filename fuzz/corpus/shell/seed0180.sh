declare -A A=(["k"]= )
argv.py "${A["k"]}"

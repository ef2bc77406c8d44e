empty=('')
argv.py "${empty[@]}"

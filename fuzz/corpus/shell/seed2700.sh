s1=''
argv.py $s1 - "$s1"

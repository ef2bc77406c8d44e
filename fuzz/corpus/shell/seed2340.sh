undef[2]=x
undef[3]=y
argv.py "${undef[@]}"

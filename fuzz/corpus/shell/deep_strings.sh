x=ab; for i in {1..20}; do x=$x$x; done; echo ${#x}
printf -v y '%*s' 100000 z; echo ${#y}
y=${y// /ab}; echo ${#y}
printf '%s\n' {1..1000} | sort -rn | head -1

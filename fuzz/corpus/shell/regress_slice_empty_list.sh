unset a; echo ${a[@]:0} x
declare -A m; echo ${m[@]:0} y
echo "${m[*]:0}" z

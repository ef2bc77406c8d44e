a=(1 2 3); a+=([10]=x [20]=y); declare -A m=([k]=v [sp ace]=w)
echo ${a[@]:1} ${!a[@]} ${#m[@]} ${!m[@]} ${a[-1]} "${a[*]}"
unset "a[1]"; a[a[a[0]]]=z; echo ${a[@]}
i=0; b[i++]=$((i++)); echo ${b[@]} $i
for i in {1..500}; do c[i*i]=$i; done; echo ${#c[@]} ${c[250000]}
mapfile -t arr <<< $'l1\nl2\nl3'; read -ra w <<< "x y z"; echo ${arr[1]} ${w[2]}

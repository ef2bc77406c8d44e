s1='abc'
s2=$s1
s1+='d'
echo $s1 $s2

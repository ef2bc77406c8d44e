set -o verbose
x=foo
y=bar
echo $x
echo $(echo $y)

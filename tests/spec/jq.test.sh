#### jq -r over an array of objects as TSV
echo '[{"a":1,"b":"x"},{"a":2,"b":"y z"}]' | jq -r '.[] | [.a, .b] | @tsv'
## STDOUT:
1	x
2	y z
## END

#### jq --arg and string interpolation
jq -n --arg name world '"hello \($name)"'
## STDOUT:
"hello world"
## END

#### jq -s with map and add
printf '1\n2\n3\n' | jq -s 'map(. * 2) | add'
## STDOUT:
12
## END

cat <(echo a) <(echo b) <(cat <(cat <(echo c)))
while read l; do echo $l; done < <(printf "1\n2\n")
echo >(cat) | wc -c

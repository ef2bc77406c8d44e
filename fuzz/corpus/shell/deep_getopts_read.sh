set -- -a -b val -c; while getopts ab:c o; do echo "$o ${OPTARG-}"; done
IFS=: read -r u p rest <<< "a:b:c:d"; echo $u $rest
printf "%s|%d|%05.1f|%b\n" s 42 3.14159 "a\tb"
declare -i n=7*6; echo $n
set -euo pipefail; false | true; echo unreachable

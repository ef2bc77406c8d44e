[[ 'a' ]] && echo true
[[ ''  ]] || echo false

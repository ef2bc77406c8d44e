shopt -s expand_aliases
alias a='b ' b='a ' c='echo c'
a c
alias x=x; x 2>/dev/null; echo $?

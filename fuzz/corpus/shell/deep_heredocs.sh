cat <<A; cat <<-B; cat <<'C'
first $HOME
A
	second
	B
third $(not run)
C
x=$(cat <<E1
$(cat <<E2
inner
E2
) outer
E1
)
echo "$x"
while read -r l; do echo "[$l]"; done <<< "$(printf '%s\n' a b c)"
f() { cat; } <<EOF
function heredoc
EOF
f

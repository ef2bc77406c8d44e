echo one 1>&2

echo two 1<&2

test -c /dev/zero
echo status=$?

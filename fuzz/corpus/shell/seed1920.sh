echo hi; while
echo status=$?

echo async &
wait

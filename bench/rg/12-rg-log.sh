rg -c ERROR app.log
rg 'latency_ms=1[0-9]{3} ' app.log | wc -l
rg -o -w 'user=\d+' app.log | tail -1

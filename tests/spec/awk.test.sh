#### awk (gawk 5.2): close() gives a command's exit status, pipes both ways
awk 'BEGIN{print "x" | "cat; exit 3"; print close("cat; exit 3"); "echo a; exit 4" | getline l; print l, close("echo a; exit 4"); print close("x"); print system("exit 5")}'
awk 'BEGIN{print "b\na" | "sort"; close("sort"); print "done"; while (("printf \"1\\n2\\n\"" | getline v) > 0) s += v; print s}'
echo abcd | gawk '{print gensub(/(.)(.)/, "\\2\\1", "g")}'
## STDOUT:
x
3
a 4
-1
5
a
b
done
3
badc
## END

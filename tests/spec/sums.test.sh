# sum and the old checksums of cksum: lines, block counts, and the name
# printed for every file operand (also "-") but not for standard input read
# for want of operands. Expected outputs recorded from GNU coreutils 9.1.

#### sum -r / -s and cksum's crc, bsd and digest lines
printf 'hello\n' > h1; seq 1000 > h2
sum h1; sum h1 h2; sum -s h1; sum -s h1 h2; echo hi | sum; echo hi | sum -s; sum -r -s h1; sum -s -r h1; sum --sysv - < h2; sum nope h1 2>&1; echo "[$?]"
sum -x 2>&1; echo "[$?]"; sum --bogus 2>&1; echo "[$?]"
cksum - < h2; cksum -a bsd - <h2; cksum -a crc < h2; cksum -a md5 - < h2;cksum -a md5 --untagged - < h2
## STDOUT:
36979     1 h1
36979     1 h1
20029     4 h2
542 1 h1
542 1 h1
31295 8 h2
32856     1
219 1
542 1 h1
36979     1 h1
31295 8 -
sum: nope: No such file or directory
36979     1 h1
[1]
sum: invalid option -- 'x'
Try 'sum --help' for more information.
[1]
sum: unrecognized option '--bogus'
Try 'sum --help' for more information.
[1]
1830648734 3893 -
20029     4 -
1830648734 3893
MD5 (-) = 53d025127ae99ab79e8502aae2d9bea6
53d025127ae99ab79e8502aae2d9bea6  -
## END

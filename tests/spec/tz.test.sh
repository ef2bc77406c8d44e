#### date shows an IANA zone's local time, abbreviation and offset
TZ=America/New_York date -d @1700000000 '+%F %T %Z %z'
TZ=Europe/Berlin date -d @1700000000 '+%F %T %Z %z %:z'
TZ=Asia/Kolkata date -d @1700000000 '+%F %T %Z %z %:z %::z'
TZ=Etc/GMT+5 date -d @1700000000 '+%F %T %Z %z'
## STDOUT:
2023-11-14 17:13:20 EST -0500
2023-11-14 23:13:20 CET +0100 +01:00
2023-11-15 03:43:20 IST +0530 +05:30 +05:30:00
2023-11-14 17:13:20 -05 -0500
## END

#### daylight saving changes in New York and Berlin
export TZ=America/New_York
for t in 1678604399 1678604400 1699163999 1699164000; do date -d @$t '+%F %T %Z'; done
export TZ=Europe/Berlin
for t in 1679792399 1679792400 1698541199 1698541200; do date -d @$t '+%F %T %Z'; done
## STDOUT:
2023-03-12 01:59:59 EST
2023-03-12 03:00:00 EDT
2023-11-05 01:59:59 EDT
2023-11-05 01:00:00 EST
2023-03-26 01:59:59 CET
2023-03-26 03:00:00 CEST
2023-10-29 02:59:59 CEST
2023-10-29 02:00:00 CET
## END

#### times past the zone table follow its rule
TZ=America/New_York date -d @4118054400 '+%F %T %Z'
TZ=Europe/Berlin date -d @4102444800 '+%F %T %Z'
## STDOUT:
2100-06-30 12:00:00 EDT
2100-01-01 01:00:00 CET
## END

#### POSIX TZ strings
TZ=UTC0 date -d @1700000000 '+%T %Z %z'
TZ='EST5EDT,M3.2.0,M11.1.0' date -d @1690000000 '+%T %Z %z'
TZ='<+03>-3' date -d @1700000000 '+%T %Z %z'
TZ=':UTC' date -d @1700000000 '+%T %Z %z'
TZ='NZST-12NZDT,M9.5.0,M4.1.0/3' date -d @1704067200 '+%T %Z %z'
## STDOUT:
22:13:20 UTC +0000
00:26:40 EDT -0400
01:13:20 +03 +0300
22:13:20 UTC +0000
13:00:00 NZDT +1300
## END

#### unknown and hostile zone names are UTC, named as glibc names them
TZ=Foo/Bar date -d @0
TZ=Nowhere/Land date -d @0 '+%Z %z'
TZ=../../etc/passwd date -d @0 '+[%Z] %z'
TZ=/etc/passwd date -d @0 '+[%Z] %z'
TZ=AB date -d @0 '+[%Z] %z'
## STDOUT:
Thu Jan  1 00:00:00 Foo 1970
Nowhere +0000
[] +0000
[] +0000
[] +0000
## END

#### without TZ, and with date -u, times are UTC
unset TZ
date -d @1700000000
TZ=America/New_York date -u -d @1700000000
TZ=America/New_York date -u -d '2023-11-14 22:13:20' +%s
## STDOUT:
Tue Nov 14 22:13:20 UTC 2023
Tue Nov 14 22:13:20 UTC 2023
1700000000
## END

#### date -d reads local times in TZ
export TZ=Europe/Berlin
date -d '2023-07-01 12:00' '+%s %Z'
date -d '2023-01-01 12:00' '+%s %Z'
date -d '2023-07-01 12:00 UTC' '+%s %H:%M %Z'
date -d '2023-07-01 12:00:00+0530' '+%s'
TZ=America/New_York date -d '2023-11-05 01:30 EST' '+%s %T %Z'
TZ=America/New_York date -d '2023-11-05 01:30' '+%s %T %Z'
## STDOUT:
1688205600 CEST
1672570800 CET
1688212800 14:00 CEST
1688193000
1699165800 01:30:00 EST
1699162200 01:30:00 EDT
## END

#### a local time skipped by a daylight saving change is invalid
TZ=America/New_York date -d '2023-03-12 02:30' +%s
echo status=$?
TZ=America/New_York touch -d '2023-03-12 02:30' f
echo status=$?
## STDOUT:
status=1
status=1
## END

#### relative days keep the clock time across a change
TZ=America/New_York date -d '2023-03-11 12:00 1 day' '+%F %T %Z'
TZ=America/New_York date -d '2023-03-11 12:00 24 hours' '+%F %T %Z'
## STDOUT:
2023-03-12 12:00:00 EDT
2023-03-12 13:00:00 EDT
## END

#### printf %(...)T uses TZ only when exported
unset TZ
TZ=Asia/Tokyo
printf '%(%F %T %Z)T\n' 1557978599
export TZ
printf '%(%F %T %Z %z)T\n' 1557978599
TZ=America/New_York printf '%(%F %T %Z)T\n' 1557978599
unset TZ
printf '%(%F %T %Z)T\n' 1557978599
## STDOUT:
2019-05-16 03:49:59 UTC
2019-05-16 12:49:59 JST +0900
2019-05-15 23:49:59 EDT
2019-05-16 03:49:59 UTC
## END

#### touch -d and -t read local time; stat and ls show it
export TZ=America/New_York
touch -d '2023-11-14 17:13:20' a
touch -t 202307010900.30 b
stat -c '%Y %y' a b
ls -l --time-style=full-iso a | cut -d' ' -f6-
ls -l --time-style='+%F %T %Z' b | cut -d' ' -f6-
TZ=Asia/Kolkata stat -c %y a
## STDOUT:
1700000000 2023-11-14 17:13:20.000000000 -0500
1688216430 2023-07-01 09:00:30.000000000 -0400
2023-11-14 17:13:20.000000000 -0500 a
2023-07-01 09:00:30 EDT b
2023-11-15 03:43:20.000000000 +0530
## END

#### find -newermt and -printf use local time
export TZ=Europe/Berlin
touch -d @1700000000 f
find f -newermt '2023-11-14 23:13:19'
find f -newermt '2023-11-14 23:13:20'
echo --
find f -printf '%TY-%Tm-%Td %TH:%TM %TZ %Tz\n'
## STDOUT:
f
--
2023-11-14 23:13 CET +0100
## END

#### date -d with a leading TZ="..." reads the rest in that zone
export TZ=Europe/Berlin
date -d 'TZ="America/New_York" 2023-07-01 12:00' '+%F %T %Z %s'
date -d 'TZ="Asia/Kolkata" 2023-07-01' '+%F %T %Z'
date -d 'TZ="UTC" TZ="UTC" 2023-07-01' +%s
echo status=$?
## STDOUT:
2023-07-01 18:00:00 CEST 1688227200
2023-06-30 20:30:00 CEST
status=1
## END

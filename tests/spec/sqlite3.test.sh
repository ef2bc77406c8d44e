# sqlite3 (builtins/data/sqlite3): outputs recorded from SQLite 3.40.1's
# shell on Debian 12 by tests/spec/record_sqlite3.py.

#### sqlite3: list mode, the default, with and without -header
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 t.db 'select * from t'; sqlite3 -header t.db 'select a, b from t'
## STDOUT:
1|x|1.5|
|he said "hi", ok|2.0|
3|line
two|-0.1|bl
a|b
1|x
|he said "hi", ok
3|line
two
## END

#### sqlite3: csv mode quotes what needs it
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -csv -header t.db 'select * from t'
sqlite3 -csv :memory: "select '', ' a', 'a b', 'x;y', 'q''q', 1.0, char(13), null"
## STDOUT:
a,b,c,d
1,x,1.5,""
,"he said ""hi"", ok",2.0,
3,"line
two",-0.1,bl
""," a","a b",x;y,"q'q",1.0,"",
## END

#### sqlite3: json mode
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -json t.db 'select * from t'
sqlite3 -json :memory: "select 'a\"b\\c'||char(9,1) as 'k\"y', 1e300*1e10 as inf, 0.1+0.2 as f, 1e20 as big, 123456789012 as i, 1.0 as one, -0.0 as nz"
sqlite3 -json :memory: 'select 1 where 0'; echo rc=$?
## STDOUT:
[{"a":1,"b":"x","c":1.5,"d":"\u0000A"},
{"a":null,"b":"he said \"hi\", ok","c":2.0,"d":null},
{"a":3,"b":"line\ntwo","c":-0.10000000000000000555,"d":"bl"}]
[{"k\"y":"a\"b\\c\t\u0001","inf":1e999,"f":0.3000000000000000444,"big":1.0e+20,"i":123456789012,"one":1.0,"nz":0.0}]
rc=0
## END

#### sqlite3: line mode
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -line t.db 'select * from t'
sqlite3 -line :memory: 'select 1 as abcdefgh, 2 as b'
## STDOUT:
    a = 1
    b = x
    c = 1.5
    d = 

    a = 
    b = he said "hi", ok
    c = 2.0
    d = 

    a = 3
    b = line
two
    c = -0.1
    d = bl
abcdefgh = 1
       b = 2
## END

#### sqlite3: column mode
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -column t.db 'select * from t'
sqlite3 -column -header t.db 'select * from t'
sqlite3 -column :memory: 'select 1 as longname, 2'
sqlite3 :memory: '.mode column' 'select 1 as longname, 2'
## STDOUT:
1  x                 1.5     

   he said "hi", ok  2.0     

3  line              -0.1  bl
   two                       
a  b                 c     d 
-  ----------------  ----  --
1  x                 1.5     

   he said "hi", ok  2.0     

3  line              -0.1  bl
   two                       
1         2
longname  2
--------  -
1         2
## END

#### sqlite3: column mode lays out tabs and control characters
sqlite3 -column -header :memory: "select 'a'||char(1)||'b' as x, 'p'||char(9)||'q' as y, 'r'||char(13)||'s' as zz, 'é' as w"
## STDOUT:
x  y          zz  w
-  ---------  --  -
a  p       q  r   é
b             s    
## END

#### sqlite3: box mode
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -box t.db 'select * from t'
sqlite3 -box :memory: "select 1 as a, 'xy' as b union all select 22, null"
## STDOUT:
┌───┬──────────────────┬──────┬────┐
│ a │        b         │  c   │ d  │
├───┼──────────────────┼──────┼────┤
│ 1 │ x                │ 1.5  │    │
├───┼──────────────────┼──────┼────┤
│   │ he said "hi", ok │ 2.0  │    │
├───┼──────────────────┼──────┼────┤
│ 3 │ line             │ -0.1 │ bl │
│   │ two              │      │    │
└───┴──────────────────┴──────┴────┘
┌────┬────┐
│ a  │ b  │
├────┼────┤
│ 1  │ xy │
│ 22 │    │
└────┴────┘
## END

#### sqlite3: table and markdown modes
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -table t.db 'select * from t'
sqlite3 -markdown t.db 'select * from t'
sqlite3 -table :memory: 'select 1 as a, 2 as bb union all select 333, 4'
## STDOUT:
+---+------------------+------+----+
| a |        b         |  c   | d  |
+---+------------------+------+----+
| 1 | x                | 1.5  |    |
+---+------------------+------+----+
|   | he said "hi", ok | 2.0  |    |
+---+------------------+------+----+
| 3 | line             | -0.1 | bl |
|   | two              |      |    |
+---+------------------+------+----+
| a |        b         |  c   | d  |
|---|------------------|------|----|
| 1 | x                | 1.5  |    |
|   | he said "hi", ok | 2.0  |    |
| 3 | line             | -0.1 | bl |
|   | two              |      |    |
+-----+----+
|  a  | bb |
+-----+----+
| 1   | 2  |
| 333 | 4  |
+-----+----+
## END

#### sqlite3: quote, tabs, html and tcl modes
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 -quote -header t.db 'select * from t'
sqlite3 -tabs t.db 'select * from t'
sqlite3 -html -header t.db 'select a, b from t'
sqlite3 :memory: '.mode tcl' "select 1, 'a\"b c'"
## STDOUT:
'a','b','c','d'
1,'x',1.5,X'0041'
NULL,'he said "hi", ok',2.0,NULL
3,'line
two',-0.10000000000000000555,'bl'
1	x	1.5	
	he said "hi", ok	2.0	
3	line
two	-0.1	bl
<TR><TH>a</TH>
<TH>b</TH>
</TR>
<TR><TD>1</TD>
<TD>x</TD>
</TR>
<TR><TD></TD>
<TD>he said &quot;hi&quot;, ok</TD>
</TR>
<TR><TD>3</TD>
<TD>line
two</TD>
</TR>
"1" "a\"b c"
## END

#### sqlite3: insert mode and .mode insert TABLE
sqlite3 :memory: '.mode insert' "select 1,'a''b',x'00ff',null,1.5,'l1'||char(10)||'l2'" '.mode insert foo' 'select 2 as x' '.headers on' 'select 3 as y'
## STDOUT:
INSERT INTO "table" VALUES(1,'a''b',X'00ff',NULL,1.5,replace('l1\nl2','\n',char(10)));
INSERT INTO foo VALUES(2);
INSERT INTO foo(y) VALUES(3);
## END

#### sqlite3: real numbers as the text modes print them
sqlite3 :memory: 'select 1e300*1e10, 0.1+0.2, 1e20, 1.0e15, 1e16, 12345.678e-30, -0.0, 2.5'
## STDOUT:
Inf|0.3|1.0e+20|1.0e+15|1.0e+16|1.2345678e-26|0.0|2.5
## END

#### sqlite3: a database written by one command is read by the next
sqlite3 db1 'create table n(x); insert into n values(1),(2),(3)'
sqlite3 db1 'insert into n select x*10 from n'
sqlite3 db1 'select sum(x), count(*) from n'
## STDOUT:
66|6
## END

#### sqlite3: SQL from standard input, statements across lines
printf 'create table a(x);\ninsert into a\n values(1),\n(2);\n\n  select x from a;\n# a comment line\nselect 7 -- trailing comment\n;\n' | sqlite3; echo rc=$?
## STDOUT:
1
2
7
rc=0
## END

#### sqlite3: .tables lays names out in columns
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 t.db .tables
sqlite3 t.db '.tables t'
sqlite3 :memory: 'create table aaaaaaaaaaaaaaaaaa(x);create table b(y); create table c(z); create temp table tt(q); attach ":memory:" as aux; create table aux.w(r)' .tables
## STDOUT:
t  v
t
aaaaaaaaaaaaaaaaaa  b                   temp.tt           
aux.w               c                 
## END

#### sqlite3: .schema with and without a pattern
sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
sqlite3 t.db .schema; echo ==; sqlite3 t.db '.schema t'; echo ==; sqlite3 t.db '.schema ti'; echo ==; sqlite3 t.db '.schema v*'
## STDOUT:
CREATE TABLE t(a int, b text, c real, d blob);
CREATE INDEX ti on t(a);
CREATE VIEW v as select a from t
/* v(a) */;
==
CREATE TABLE t(a int, b text, c real, d blob);
CREATE INDEX ti on t(a);
==
==
CREATE VIEW v as select a from t
/* v(a) */;
## END

#### sqlite3: .dump
sqlite3 a.db "create table t(a integer primary key autoincrement, b text); insert into t(b) values('x'),('it''s
two'); create index tb on t(b); create view v as select * from t; create trigger tr after insert on t begin select 1; end; create table \"odd name\"(\"c 1\", [select]); insert into \"odd name\" values(1.5, x'01');"
sqlite3 a.db .dump; echo ==; sqlite3 a.db '.dump t'; echo ==; sqlite3 a.db .schema
## STDOUT:
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE t(a integer primary key autoincrement, b text);
INSERT INTO t VALUES(1,'x');
INSERT INTO t VALUES(2,replace('it''s\ntwo','\n',char(10)));
CREATE TABLE IF NOT EXISTS "odd name"("c 1", [select]);
INSERT INTO "odd name" VALUES(1.5,X'01');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('t',2);
CREATE INDEX tb on t(b);
CREATE VIEW v as select * from t;
CREATE TRIGGER tr after insert on t begin select 1; end;
COMMIT;
==
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE t(a integer primary key autoincrement, b text);
INSERT INTO t VALUES(1,'x');
INSERT INTO t VALUES(2,replace('it''s\ntwo','\n',char(10)));
COMMIT;
==
CREATE TABLE t(a integer primary key autoincrement, b text);
CREATE TABLE sqlite_sequence(name,seq);
CREATE INDEX tb on t(b);
CREATE VIEW v as select * from t
/* v(a,b) */;
CREATE TRIGGER tr after insert on t begin select 1; end;
CREATE TABLE IF NOT EXISTS "odd name"("c 1", [select]);
## END

#### sqlite3: dot commands: .headers .separator .nullvalue .mode
sqlite3 :memory: '.headers on' 'select 1 as x' '.headers off' 'select 2' '.separator , ;' 'select 3,4' '.nullvalue NULL' '.mode' 'select null,5' '.mode csv' '.mode' 'select 6,7'; echo; echo rc=$?
sqlite3 :memory: '.separator ;' '.mode list' 'select 1,2'
sqlite3 :memory: '.mode tabs' "select 1,'a b'" '.mode list' 'select 3,4'
## STDOUT:
x
1
2
3,4;current output mode: list
NULL|5
current output mode: csv
6,7

rc=0
1|2
1	a b
3|4
## END

#### sqlite3: options: -separator -newline -nullvalue -cmd -noheader
sqlite3 -separator ';' -newline '#' -nullvalue N :memory: 'select 1,null,3' 'select 4'; echo
sqlite3 -cmd '.mode csv' -cmd '.headers on' :memory: "select 1 as a,'b c' as b"
sqlite3 -header -noheader :memory: 'select 1 as a'
sqlite3 -cmd '.mode csv' -json :memory: 'select 1 as a'
sqlite3 -csv -separator '\t' :memory: "select 1,'a b'"
## STDOUT:
1;N;3#4#
a,b
1,"b c"
1
[{"a":1}]
1\t"a b"
## END

#### sqlite3: errors in SQL arguments end the command with SQLite's code
sqlite3 :memory: 'select * from x' 2>e; echo rc=$?; cat e
sqlite3 :memory: 'select 1; selec 2' 2>e; echo rc=$?; cat e
sqlite3 :memory: 'create table a(x unique); insert into a values(1),(1)' 2>e; echo rc=$?; cat e
sqlite3 :memory: 'select abs(-9223372036854775808)' 2>e; echo rc=$?; cat e
sqlite3 :memory: 'select 1 select 2' 2>e; echo rc=$?; cat e
## STDOUT:
rc=1
Error: in prepare, no such table: x
1
rc=1
Error: in prepare, near "selec": syntax error
  selec 2
  ^--- error here
rc=19
Error: stepping, UNIQUE constraint failed: a.x (19)
rc=1
Error: stepping, integer overflow
rc=1
Error: in prepare, near "select": syntax error
  select 1 select 2
           ^--- error here
## END

#### sqlite3: where a syntax error is, in a long statement
sqlite3 :memory: "select 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 frm nowhere_table_name_long ggggggggggggggggggggggggggggggggggggggggggggggggggggggg" 2>e; echo rc=$?; cat e
sqlite3 :memory: 'select 1;   selec 2   ;  ' 2>e; echo rc=$?; cat e
## STDOUT:
rc=1
Error: in prepare, near "nowhere_table_name_long": syntax error
  9, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 frm nowhere_table_name_long gggg
                                      error here ---^
1
rc=1
Error: in prepare, near "selec": syntax error
  selec 2   ;  
  ^--- error here
## END

#### sqlite3: errors in standard input: near line N, going on unless -bail
printf 'create table a(x unique);\ninsert into a values(1),(1);\nselect 5;\nselec 1;\nselect\n * from nope;\nselect 6;\n' > in.sql
sqlite3 < in.sql 2>e; echo rc=$?; cat e
sqlite3 -bail < in.sql 2>e; echo rc=$?; cat e
printf 'select 1; select * from x; select 2;\nselect 3;\n' | sqlite3 2>e; echo rc=$?; cat e
printf 'select 1;\n\n  select nope;\nselect 3' | sqlite3 2>e; echo rc=$?; cat e
printf 'select x' | sqlite3 2>e; echo rc=$?; cat e
## STDOUT:
5
6
rc=1
Runtime error near line 2: UNIQUE constraint failed: a.x (19)
Parse error near line 4: near "selec": syntax error
  selec 1;
  ^--- error here
Parse error near line 5: no such table: nope
rc=1
Runtime error near line 2: UNIQUE constraint failed: a.x (19)
1
3
rc=1
Parse error near line 1: no such table: x
1
3
rc=1
Parse error near line 3: no such column: nope
  select nope;
         ^--- error here
rc=1
Parse error near line 1: no such column: x
  select x
         ^--- error here
## END

#### sqlite3: dot command errors
sqlite3 :memory: .foo 2>e; echo rc=$?; cat e
sqlite3 :memory: '.mode foo' 2>e; echo rc=$?; cat e
sqlite3 :memory: .headers 2>e; echo rc=$?; cat e
sqlite3 :memory: .separator 2>e; echo rc=$?; cat e
sqlite3 :memory: .nullvalue 2>e; echo rc=$?; cat e
printf '.tables\n.bogus\nselect 1;\n.headers maybe\nselect 2 as two;\n.read nofile\n' | sqlite3 2>e; echo rc=$?; cat e
## STDOUT:
rc=1
Error: unknown command or invalid arguments:  "foo". Enter ".help" for help
rc=1
Error: mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl
rc=1
Usage: .headers on|off
rc=1
Usage: .separator COL ?ROW?
rc=1
Usage: .nullvalue STRING
1
2
rc=1
Error: unknown command or invalid arguments:  "bogus". Enter ".help" for help
ERROR: Not a boolean value: "maybe". Assuming "no".
Error: cannot open "nofile"
## END

#### sqlite3: .read, .quit and .exit
printf 'select 1;\n.read b.sql\nselect 3;\n' > a.sql; printf 'select 2;\n' > b.sql
sqlite3 :memory: '.read a.sql'; echo rc=$?
printf 'select 1;\n.exit 3\nselect 2;\n' | sqlite3; echo rc=$?
printf '.quit\nselect 2;\n' | sqlite3; echo rc=$?
sqlite3 :memory: 'select 1' .quit 'select 2'; echo rc=$?
## STDOUT:
1
2
3
rc=0
1
rc=3
rc=0
1
rc=0
## END

#### sqlite3: unknown option, missing argument, unopenable file
sqlite3 -foo 2>e; echo rc=$?; cat e
sqlite3 --bogus x.db 2>e; echo rc=$?; cat e
sqlite3 :memory: -cmd 2>e; echo rc=$?; cat e
sqlite3 /nonexist/x.db 'select 1' 2>e; echo rc=$?; cat e
## STDOUT:
rc=1
sqlite3: Error: unknown option: -foo
Use -help for a list of options.
rc=1
sqlite3: Error: unknown option: -bogus
Use -help for a list of options.
rc=1
sqlite3: Error: missing argument to -cmd
rc=1
Error: unable to open database "/nonexist/x.db": unable to open database file
## END

#### sqlite3: -readonly refuses writes
sqlite3 r.db 'create table t(x)'
sqlite3 -readonly r.db 'insert into t values(1)' 2>e; echo rc=$?; cat e
sqlite3 -readonly r.db 'select count(*) from t'
## STDOUT:
rc=8
Error: stepping, attempt to write a readonly database (8)
0
## END

#### sqlite3: .import of CSV and separated files
printf 'name,age\nann,30\n"bob, jr","4""0"\n' > p.csv && printf 'x|y\n1|2\n' > p.txt
sqlite3 imp.db '.import --csv p.csv people' '.schema' 'select * from people' '.import p.txt pipes' '.schema pipes' 'select * from pipes' '.import --csv p.csv people' 'select count(*) from people' '.import --csv --skip 1 p.csv people' 'select count(*) from people'; echo rc=$?
sqlite3 imp.db '.import nofile.csv x' 2>e; echo rc=$?; cat e
printf 'a,b\n1\n1,2,3\n' > bad.csv; sqlite3 imp.db '.import --csv bad.csv people' 2>e; echo rc=$?; cat e
sqlite3 imp.db 'select * from people'
printf 'k,v\r\n1,"multi\r\nline"\r\n2,x\r\n' > crlf.csv; sqlite3 -csv imp.db '.import crlf.csv c' 'select k, length(v) from c'
printf 'a;b\n1;2\n' > semi.csv; sqlite3 imp.db '.mode csv' '.separator ;' '.import semi.csv s' '.mode list' 'select * from s'
printf 'a,b\n1,2\n3,4\n' > v.csv; sqlite3 imp.db '.import -v --csv v.csv vv'
## STDOUT:
CREATE TABLE IF NOT EXISTS "people"(
"name" TEXT, "age" TEXT);
ann|30
bob, jr|4"0
CREATE TABLE IF NOT EXISTS "pipes"(
"x" TEXT, "y" TEXT);
1|2
5
7
rc=0
rc=1
Error: cannot open "nofile.csv"
rc=0
bad.csv:2: expected 2 columns but found 1 - filling the rest with NULL
bad.csv:3: expected 2 columns but found 3 - extras ignored
ann|30
bob, jr|4"0
name|age
ann|30
bob, jr|4"0
ann|30
bob, jr|4"0
a|b
1|
1|2
1,11
2,1
1|2
CREATE TABLE "vv"(
"a" TEXT, "b" TEXT)

Added 2 rows with 0 errors using 3 lines of input
## END

#### sqlite3: the database opens when first needed; files that are not databases; -cmd, -init and -bail
sqlite3 new.db '.tables'; ls new.db 2>&1; echo rc=$?
sqlite3 new2.db .mode; ls new2.db 2>&1
sqlite3 new3.db 'select 1'; ls -s new3.db 2>&1
mkdir dd; sqlite3 dd 'select 1' 2>e; echo rc=$?; cat e
echo hello > notdb; sqlite3 notdb 'select * from t' 2>e; echo rc=$?; cat e
sqlite3 notdb .tables 2>e; echo rc=$?; cat e
printf '' | sqlite3; echo rc=$?
sqlite3 :memory: '  ' '-- just a comment' 'select 2' 2>e; echo rc=$?; cat e
sqlite3 -bail :memory: 'select * from x' 'select 2' 2>e; echo rc=$?; cat e
sqlite3 -cmd 'select * from x' :memory: 'select 2' 2>e; echo rc=$?; cat e
sqlite3 -bail -cmd 'select * from x' :memory: 'select 2' 2>e; echo rc=$?; cat e
sqlite3 -cmd '.bogus' :memory: 'select 2' 2>e; echo rc=$?; cat e
echo 'select 1;' > init.sql; sqlite3 -init init.sql :memory: 'select 2' 2>e; echo rc=$?; cat e
sqlite3 :memory: "select 'a' as x union all select 'bb'" -header -column; echo rc=$?
## STDOUT:
new.db
rc=0
current output mode: list
ls: cannot access 'new2.db': No such file or directory
1
0 new3.db
rc=1
Error: unable to open database "dd": unable to open database file
rc=26
Error: in prepare, file is not a database (26)
rc=1
Error: file is not a database
rc=0
rc=1
sqlite3: Error: unknown option: - just a comment
Use -help for a list of options.
rc=1
Error: in prepare, no such table: x
2
rc=0
Error: in prepare, no such table: x
rc=1
Error: in prepare, no such table: x
2
rc=0
Error: unknown command or invalid arguments:  "bogus". Enter ".help" for help
1
2
rc=0
x 
--
a 
bb
rc=0
## END

#### sqlite3: more modes and dot commands
sqlite3 -markdown :memory: "select 1 as a where 0"; echo rc=$?
sqlite3 -line :memory: "select null as n" -nullvalue NIL
sqlite3 :memory: ".mode box" "select 'a|b' as 'col|1', 1.5"
sqlite3 :memory: ".mode qbox" "select 'a''b' as s, 1.5 as r, x'01' as b, null as n, 3 as i"
sqlite3 :memory: ".mode ascii" "select 1,2" "select 3" | od -c | head -3
sqlite3 :memory: "create table t(x)" "insert into t values(1)" "select changes()" "select * from t where x=2"
sqlite3 -json :memory: "select 1 as a, 2 as a"
sqlite3 -csv :memory: "select x'00ff' as b" | od -c | head
sqlite3 :memory: ".headers ON" "select 1 as z" ".headers 0" "select 2 as z" ".headers yes" "select 3 as z"
sqlite3 :memory: ".mode lines" "select 1 as q" ".mode columns" "select 2 as q"
sqlite3 :memory: ".schema" ".tables" ".dump"
sqlite3 :memory: "create table a(x)" ".tables a" ".tables zz" ".schema zz"; echo rc=$?
## STDOUT:
rc=0
    n = NIL
┌───────┬─────┐
│ col|1 │ 1.5 │
├───────┼─────┤
│ a|b   │ 1.5 │
└───────┴─────┘
┌────────┬─────┬───────┬──────┬───┐
│   s    │  r  │   b   │  n   │ i │
├────────┼─────┼───────┼──────┼───┤
│ 'a''b' │ 1.5 │ x'01' │ NULL │ 3 │
└────────┴─────┴───────┴──────┴───┘
0000000   1 037   2 036   3 036
0000006
1
[{"a":1,"a":2}]
0000000   "   "  \n
0000003
z
1
2
z
3
    q = 1
q
-
2
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
COMMIT;
a
rc=0
## END

#### sqlite3: .mode column turns headers on unless they were set
sqlite3 :memory: '.headers off' '.mode column' 'select 1 as a'
sqlite3 -noheader :memory: '.mode column' 'select 1 as a'
sqlite3 -header :memory: '.mode column' 'select 1 as a'
sqlite3 :memory: '.mode column' 'select 1 as a' '.mode list' 'select 2 as b'
sqlite3 :memory: '.mode column' 'select 1 as a, 2 as b' '.mode box' 'select 1 as a' '.mode table' 'select 1 as a'
## STDOUT:
1
1
a
-
1
a
-
1
b
2
a  b
-  -
1  2
┌───┐
│ a │
├───┤
│ 1 │
└───┘
+---+
| a |
+---+
| 1 |
+---+
## END

#### sqlite3: .output, .once, .indexes, .print, .echo, .bail
printf '.once f1\nselect 1;\nselect 2;\n.output f2\nselect 3;\nselect 4;\n.output stdout\nselect 5;\n' | sqlite3; cat f1; echo ==; cat f2
sqlite3 :memory: '.output /nonexistent/x' 2>e; echo rc=$?; cat e
sqlite3 o2.db 'create table t(a,b); create index ta on t(a); create index tb on t(b); create table u(x unique)' '.indexes' '.indexes t' '.indices u' '.print hello "two words" x\ty' '.print'
printf '.echo on\nselect 1;\n.echo off\nselect 2;\n' | sqlite3
printf 'select 1;\n.bail on\nselect * from nope;\nselect 2;\n' | sqlite3 2>e; echo rc=$?; cat e
echo 'select 1;' | sqlite3 -echo
sqlite3 -echo :memory: 'select 1' '.mode csv'
sqlite3 :memory: '.bail' 2>e; echo rc=$?; cat e
## STDOUT:
2
5
1
==
3
4
rc=1
Error: cannot open "/nonexistent/x"
Error: cannot write to "/nonexistent/x"
sqlite_autoindex_u_1  ta                    tb                  
ta  tb
sqlite_autoindex_u_1
hello two words x	y

select 1;
1
.echo off
2
1
rc=1
Parse error near line 3: no such table: nope
select 1;
1
1
rc=1
Usage: .bail on|off
## END

#### sqlite3: .mode with --wrap and --wordwrap
sqlite3 :memory: '.mode box --wrap 5' "select 'abcdefghijkl mno' as a, 'x' as b"
sqlite3 :memory: '.mode table --wrap 8 --ww' "select 'the quick brown fox jumps over' as a, 'héllo wörld ünïcode' as b, 'tab	x' as c"
sqlite3 :memory: '.mode column --wrap 6 --wordwrap on' "select 'one two three four' as a"
sqlite3 :memory: '.mode markdown --wrap 4' "select 'abcdefghij' as a union all select 'xy'"
## STDOUT:
┌───────┬───┐
│   a   │ b │
├───────┼───┤
│ abcde │ x │
│ fghij │   │
│ kl mn │   │
│ o     │   │
└───────┴───┘
+----------+---------+----------+
|    a     |    b    |    c     |
+----------+---------+----------+
| the quic | héllo   | tab      |
| k brown  | wörld   | x        |
| fox jump | ünïcode |          |
| s over   |         |          |
+----------+---------+----------+
a     
------
one   
two   
three 
four  
|  a   |
|------|
| abcd |
| efgh |
| ij   |
| xy   |
## END

#### sqlite3: .width
sqlite3 :memory: '.mode column' '.width 5 -6' "select 'abcdefghij' as a, 12 as b, 'z' as c"
sqlite3 :memory: '.mode box' '.width -4 3' "select 1 as num, 'abcdef' as s"
sqlite3 :memory: '.width 3' '.mode table' "select 'abcdefg' as a" '.width' "select 'abcdefg' as a"
sqlite3 -column -header :memory: '.width -8' "select 'ab' as a"
sqlite3 :memory: '.width 4 -2 0' .show | grep width
## STDOUT:
a           b  c
-----  ------  -
abcde      12  z
fghij           
┌──────┬─────┐
│ num  │  s  │
├──────┼─────┤
│    1 │ abc │
│      │ def │
└──────┴─────┘
+-----+
|  a  |
+-----+
| abc |
| def |
| g   |
+-----+
+---------+
|    a    |
+---------+
| abcdefg |
+---------+
       a
--------
      ab
       width: 4 -2 0 
## END

#### sqlite3: symbolic links to a database, and -nofollow
sqlite3 real.db 'create table t(x); insert into t values(1)'; ln -s real.db link.db
sqlite3 link.db 'insert into t values(2)' 'select count(*) from t'; ls
sqlite3 -nofollow link.db 'select 1' 2>e; echo rc=$?; cat e
sqlite3 -nofollow real.db 'select count(*) from t'
## STDOUT:
2
link.db
real.db
rc=1
Error: unable to open database "link.db": unable to open database file
2
## END

#### sqlite3: -version
sqlite3 -version
## STDOUT:
3.40.1 2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1
## END

#### sqlite3: .show
sqlite3 :memory: .show '.headers on' '.mode csv' '.nullvalue -' .show
## STDOUT:
        echo: off
         eqp: off
     explain: auto
     headers: off
        mode: list
   nullvalue: ""
      output: stdout
colseparator: "|"
rowseparator: "\n"
       stats: off
       width: 
    filename: :memory:
        echo: off
         eqp: off
     explain: auto
     headers: on
        mode: csv
   nullvalue: "-"
      output: stdout
colseparator: ","
rowseparator: "\r\n"
       stats: off
       width: 
    filename: :memory:
## END

#### sqlite3: functions and recursive CTEs
sqlite3 :memory: 'with recursive c(x) as (select 1 union all select x+1 from c limit 5) select group_concat(x) from c' "select upper('abc'), length('héllo'), printf('%05.1f', 3.14159), typeof(1), typeof(1.0), hex('A'), json_array(1,'a')"
## STDOUT:
1,2,3,4,5
ABC|5|003.1|integer|real|41|[1,"a"]
## END

#### sqlite3: ATTACH of a file beside the database, and a temp table sorting
sqlite3 m.db "attach 'o.db' as o; create table o.t(x); insert into o.t values(2),(1)"
sqlite3 o.db 'select x from t order by x'
## STDOUT:
1
2
## END

#### sqlite3: a transaction rolled back leaves the file as it was
sqlite3 tx.db 'create table t(x); insert into t values(1)'
sqlite3 tx.db 'begin; insert into t values(2); rollback' 'select count(*) from t'
printf 'begin;\ninsert into t values(3);\n' | sqlite3 tx.db; sqlite3 tx.db 'select count(*) from t'
## STDOUT:
1
1
## END

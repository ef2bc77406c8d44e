#!/usr/bin/env python3
"""Writes tests/spec/sqlite3.test.sh: each case below run by bash with the
real sqlite3 (SQLite 3.40.1, Debian 12) in an empty directory, its stdout and
status recorded as the expectation. Run it only to re-record:

    python3 tests/spec/record_sqlite3.py > tests/spec/sqlite3.test.sh

Standard error is part of what a case checks: the cases write it to a file
and print it after the status, since the real shell buffers stdout and not
stderr (merging them would record an order that depends on buffering)."""
import json
import subprocess
import sys
import tempfile

SETUP = r"""sqlite3 t.db "create table t(a int, b text, c real, d blob);
insert into t values(1,'x',1.5,x'0041'),(NULL,'he said \"hi\", ok',2.0,NULL),
(3,'line
two',-0.1,'bl');
create index ti on t(a); create view v as select a from t;"
"""

CASES = [
    ("list mode, the default, with and without -header",
     SETUP + "sqlite3 t.db 'select * from t'; sqlite3 -header t.db 'select a, b from t'"),
    ("csv mode quotes what needs it",
     SETUP + "sqlite3 -csv -header t.db 'select * from t'\n"
     "sqlite3 -csv :memory: \"select '', ' a', 'a b', 'x;y', 'q''q', 1.0, char(13), null\""),
    ("json mode", SETUP + "sqlite3 -json t.db 'select * from t'\n"
     "sqlite3 -json :memory: \"select 'a\\\"b\\\\c'||char(9,1) as 'k\\\"y', 1e300*1e10 as inf, "
     "0.1+0.2 as f, 1e20 as big, 123456789012 as i, 1.0 as one, -0.0 as nz\"\n"
     "sqlite3 -json :memory: 'select 1 where 0'; echo rc=$?"),
    ("line mode", SETUP + "sqlite3 -line t.db 'select * from t'\n"
     "sqlite3 -line :memory: 'select 1 as abcdefgh, 2 as b'"),
    ("column mode", SETUP + "sqlite3 -column t.db 'select * from t'\n"
     "sqlite3 -column -header t.db 'select * from t'\n"
     "sqlite3 -column :memory: 'select 1 as longname, 2'\n"
     "sqlite3 :memory: '.mode column' 'select 1 as longname, 2'"),
    ("column mode lays out tabs and control characters",
     "sqlite3 -column -header :memory: \"select 'a'||char(1)||'b' as x, "
     "'p'||char(9)||'q' as y, 'r'||char(13)||'s' as zz, 'é' as w\""),
    ("box mode", SETUP + "sqlite3 -box t.db 'select * from t'\n"
     "sqlite3 -box :memory: \"select 1 as a, 'xy' as b union all select 22, null\""),
    ("table and markdown modes", SETUP + "sqlite3 -table t.db 'select * from t'\n"
     "sqlite3 -markdown t.db 'select * from t'\n"
     "sqlite3 -table :memory: 'select 1 as a, 2 as bb union all select 333, 4'"),
    ("quote, tabs, html and tcl modes", SETUP + "sqlite3 -quote -header t.db 'select * from t'\n"
     "sqlite3 -tabs t.db 'select * from t'\nsqlite3 -html -header t.db 'select a, b from t'\n"
     "sqlite3 :memory: '.mode tcl' \"select 1, 'a\\\"b c'\""),
    ("insert mode and .mode insert TABLE",
     "sqlite3 :memory: '.mode insert' \"select 1,'a''b',x'00ff',null,1.5,'l1'||char(10)||'l2'\" "
     "'.mode insert foo' 'select 2 as x' '.headers on' 'select 3 as y'"),
    ("real numbers as the text modes print them",
     "sqlite3 :memory: 'select 1e300*1e10, 0.1+0.2, 1e20, 1.0e15, 1e16, 12345.678e-30, -0.0, 2.5'"),
    ("a database written by one command is read by the next",
     "sqlite3 db1 'create table n(x); insert into n values(1),(2),(3)'\n"
     "sqlite3 db1 'insert into n select x*10 from n'\nsqlite3 db1 'select sum(x), count(*) from n'"),
    ("SQL from standard input, statements across lines",
     "printf 'create table a(x);\\ninsert into a\\n values(1),\\n(2);\\n\\n  select x from a;\\n"
     "# a comment line\\nselect 7 -- trailing comment\\n;\\n' | sqlite3; echo rc=$?"),
    (".tables lays names out in columns",
     SETUP + "sqlite3 t.db .tables\nsqlite3 t.db '.tables t'\n"
     "sqlite3 :memory: 'create table aaaaaaaaaaaaaaaaaa(x);create table b(y); create table c(z); "
     "create temp table tt(q); attach \":memory:\" as aux; create table aux.w(r)' .tables"),
    (".schema with and without a pattern",
     SETUP + "sqlite3 t.db .schema; echo ==; sqlite3 t.db '.schema t'; echo ==; "
     "sqlite3 t.db '.schema ti'; echo ==; sqlite3 t.db '.schema v*'"),
    (".dump",
     "sqlite3 a.db \"create table t(a integer primary key autoincrement, b text); "
     "insert into t(b) values('x'),('it''s\ntwo'); create index tb on t(b); "
     "create view v as select * from t; create trigger tr after insert on t begin select 1; end; "
     "create table \\\"odd name\\\"(\\\"c 1\\\", [select]); insert into \\\"odd name\\\" values(1.5, x'01');\"\n"
     "sqlite3 a.db .dump; echo ==; sqlite3 a.db '.dump t'; echo ==; sqlite3 a.db .schema"),
    ("dot commands: .headers .separator .nullvalue .mode",
     "sqlite3 :memory: '.headers on' 'select 1 as x' '.headers off' 'select 2' "
     "'.separator , ;' 'select 3,4' '.nullvalue NULL' '.mode' 'select null,5' '.mode csv' "
     "'.mode' 'select 6,7'; echo; echo rc=$?\n"
     "sqlite3 :memory: '.separator ;' '.mode list' 'select 1,2'\n"
     "sqlite3 :memory: '.mode tabs' \"select 1,'a b'\" '.mode list' 'select 3,4'"),
    ("options: -separator -newline -nullvalue -cmd -noheader",
     "sqlite3 -separator ';' -newline '#' -nullvalue N :memory: 'select 1,null,3' 'select 4'; echo\n"
     "sqlite3 -cmd '.mode csv' -cmd '.headers on' :memory: \"select 1 as a,'b c' as b\"\n"
     "sqlite3 -header -noheader :memory: 'select 1 as a'\n"
     "sqlite3 -cmd '.mode csv' -json :memory: 'select 1 as a'\n"
     "sqlite3 -csv -separator '\\t' :memory: \"select 1,'a b'\""),
    ("errors in SQL arguments end the command with SQLite's code",
     "sqlite3 :memory: 'select * from x' 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: 'select 1; selec 2' 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: 'create table a(x unique); insert into a values(1),(1)' 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: 'select abs(-9223372036854775808)' 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: 'select 1 select 2' 2>e; echo rc=$?; cat e"),
    ("where a syntax error is, in a long statement",
     "sqlite3 :memory: \"select 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, "
     "19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 frm nowhere_table_name_long "
     "ggggggggggggggggggggggggggggggggggggggggggggggggggggggg\" 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: 'select 1;   selec 2   ;  ' 2>e; echo rc=$?; cat e"),
    ("errors in standard input: near line N, going on unless -bail",
     "printf 'create table a(x unique);\\ninsert into a values(1),(1);\\nselect 5;\\nselec 1;\\n"
     "select\\n * from nope;\\nselect 6;\\n' > in.sql\n"
     "sqlite3 < in.sql 2>e; echo rc=$?; cat e\nsqlite3 -bail < in.sql 2>e; echo rc=$?; cat e\n"
     "printf 'select 1; select * from x; select 2;\\nselect 3;\\n' | sqlite3 2>e; echo rc=$?; cat e\n"
     "printf 'select 1;\\n\\n  select nope;\\nselect 3' | sqlite3 2>e; echo rc=$?; cat e\n"
     "printf 'select x' | sqlite3 2>e; echo rc=$?; cat e"),
    ("dot command errors",
     "sqlite3 :memory: .foo 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: '.mode foo' 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: .headers 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: .separator 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: .nullvalue 2>e; echo rc=$?; cat e\n"
     "printf '.tables\\n.bogus\\nselect 1;\\n.headers maybe\\nselect 2 as two;\\n.read nofile\\n' "
     "| sqlite3 2>e; echo rc=$?; cat e"),
    (".read, .quit and .exit",
     "printf 'select 1;\\n.read b.sql\\nselect 3;\\n' > a.sql; printf 'select 2;\\n' > b.sql\n"
     "sqlite3 :memory: '.read a.sql'; echo rc=$?\n"
     "printf 'select 1;\\n.exit 3\\nselect 2;\\n' | sqlite3; echo rc=$?\n"
     "printf '.quit\\nselect 2;\\n' | sqlite3; echo rc=$?\n"
     "sqlite3 :memory: 'select 1' .quit 'select 2'; echo rc=$?"),
    ("unknown option, missing argument, unopenable file",
     "sqlite3 -foo 2>e; echo rc=$?; cat e\nsqlite3 --bogus x.db 2>e; echo rc=$?; cat e\n"
     "sqlite3 :memory: -cmd 2>e; echo rc=$?; cat e\n"
     "sqlite3 /nonexist/x.db 'select 1' 2>e; echo rc=$?; cat e"),
    ("-readonly refuses writes",
     "sqlite3 r.db 'create table t(x)'\n"
     "sqlite3 -readonly r.db 'insert into t values(1)' 2>e; echo rc=$?; cat e\n"
     "sqlite3 -readonly r.db 'select count(*) from t'"),
    (".import of CSV and separated files", 'printf \'name,age\\nann,30\\n"bob, jr","4""0"\\n\' > p.csv && printf \'x|y\\n1|2\\n\' > p.txt\nsqlite3 imp.db \'.import --csv p.csv people\' \'.schema\' \'select * from people\' \'.import p.txt pipes\' \'.schema pipes\' \'select * from pipes\' \'.import --csv p.csv people\' \'select count(*) from people\' \'.import --csv --skip 1 p.csv people\' \'select count(*) from people\'; echo rc=$?\nsqlite3 imp.db \'.import nofile.csv x\' 2>e; echo rc=$?; cat e\nprintf \'a,b\\n1\\n1,2,3\\n\' > bad.csv; sqlite3 imp.db \'.import --csv bad.csv people\' 2>e; echo rc=$?; cat e\nsqlite3 imp.db \'select * from people\'\nprintf \'k,v\\r\\n1,"multi\\r\\nline"\\r\\n2,x\\r\\n\' > crlf.csv; sqlite3 -csv imp.db \'.import crlf.csv c\' \'select k, length(v) from c\'\nprintf \'a;b\\n1;2\\n\' > semi.csv; sqlite3 imp.db \'.mode csv\' \'.separator ;\' \'.import semi.csv s\' \'.mode list\' \'select * from s\'\nprintf \'a,b\\n1,2\\n3,4\\n\' > v.csv; sqlite3 imp.db \'.import -v --csv v.csv vv\'\n'),
    ("the database opens when first needed; files that are not databases; -cmd, -init and -bail", 'sqlite3 new.db \'.tables\'; ls new.db 2>&1; echo rc=$?\nsqlite3 new2.db .mode; ls new2.db 2>&1\nsqlite3 new3.db \'select 1\'; ls -s new3.db 2>&1\nmkdir dd; sqlite3 dd \'select 1\' 2>e; echo rc=$?; cat e\necho hello > notdb; sqlite3 notdb \'select * from t\' 2>e; echo rc=$?; cat e\nsqlite3 notdb .tables 2>e; echo rc=$?; cat e\nprintf \'\' | sqlite3; echo rc=$?\nsqlite3 :memory: \'  \' \'-- just a comment\' \'select 2\' 2>e; echo rc=$?; cat e\nsqlite3 -bail :memory: \'select * from x\' \'select 2\' 2>e; echo rc=$?; cat e\nsqlite3 -cmd \'select * from x\' :memory: \'select 2\' 2>e; echo rc=$?; cat e\nsqlite3 -bail -cmd \'select * from x\' :memory: \'select 2\' 2>e; echo rc=$?; cat e\nsqlite3 -cmd \'.bogus\' :memory: \'select 2\' 2>e; echo rc=$?; cat e\necho \'select 1;\' > init.sql; sqlite3 -init init.sql :memory: \'select 2\' 2>e; echo rc=$?; cat e\nsqlite3 :memory: "select \'a\' as x union all select \'bb\'" -header -column; echo rc=$?'),
    ("more modes and dot commands", 'sqlite3 -markdown :memory: "select 1 as a where 0"; echo rc=$?\nsqlite3 -line :memory: "select null as n" -nullvalue NIL\nsqlite3 :memory: ".mode box" "select \'a|b\' as \'col|1\', 1.5"\nsqlite3 :memory: ".mode qbox" "select \'a\'\'b\' as s, 1.5 as r, x\'01\' as b, null as n, 3 as i"\nsqlite3 :memory: ".mode ascii" "select 1,2" "select 3" | od -c | head -3\nsqlite3 :memory: "create table t(x)" "insert into t values(1)" "select changes()" "select * from t where x=2"\nsqlite3 -json :memory: "select 1 as a, 2 as a"\nsqlite3 -csv :memory: "select x\'00ff\' as b" | od -c | head\nsqlite3 :memory: ".headers ON" "select 1 as z" ".headers 0" "select 2 as z" ".headers yes" "select 3 as z"\nsqlite3 :memory: ".mode lines" "select 1 as q" ".mode columns" "select 2 as q"\nsqlite3 :memory: ".schema" ".tables" ".dump"\nsqlite3 :memory: "create table a(x)" ".tables a" ".tables zz" ".schema zz"; echo rc=$?'),
    (".mode column turns headers on unless they were set", "sqlite3 :memory: '.headers off' '.mode column' 'select 1 as a'\nsqlite3 -noheader :memory: '.mode column' 'select 1 as a'\nsqlite3 -header :memory: '.mode column' 'select 1 as a'\nsqlite3 :memory: '.mode column' 'select 1 as a' '.mode list' 'select 2 as b'\nsqlite3 :memory: '.mode column' 'select 1 as a, 2 as b' '.mode box' 'select 1 as a' '.mode table' 'select 1 as a'"),
    (".output, .once, .indexes, .print, .echo, .bail", 'printf \'.once f1\\nselect 1;\\nselect 2;\\n.output f2\\nselect 3;\\nselect 4;\\n.output stdout\\nselect 5;\\n\' | sqlite3; cat f1; echo ==; cat f2\nsqlite3 :memory: \'.output /nonexistent/x\' 2>e; echo rc=$?; cat e\nsqlite3 o2.db \'create table t(a,b); create index ta on t(a); create index tb on t(b); create table u(x unique)\' \'.indexes\' \'.indexes t\' \'.indices u\' \'.print hello "two words" x\\ty\' \'.print\'\nprintf \'.echo on\\nselect 1;\\n.echo off\\nselect 2;\\n\' | sqlite3\nprintf \'select 1;\\n.bail on\\nselect * from nope;\\nselect 2;\\n\' | sqlite3 2>e; echo rc=$?; cat e\necho \'select 1;\' | sqlite3 -echo\nsqlite3 -echo :memory: \'select 1\' \'.mode csv\'\nsqlite3 :memory: \'.bail\' 2>e; echo rc=$?; cat e'),
    (".mode with --wrap and --wordwrap", 'sqlite3 :memory: \'.mode box --wrap 5\' "select \'abcdefghijkl mno\' as a, \'x\' as b"\nsqlite3 :memory: \'.mode table --wrap 8 --ww\' "select \'the quick brown fox jumps over\' as a, \'héllo wörld ünïcode\' as b, \'tab\tx\' as c"\nsqlite3 :memory: \'.mode column --wrap 6 --wordwrap on\' "select \'one two three four\' as a"\nsqlite3 :memory: \'.mode markdown --wrap 4\' "select \'abcdefghij\' as a union all select \'xy\'"'),
    (".width", 'sqlite3 :memory: \'.mode column\' \'.width 5 -6\' "select \'abcdefghij\' as a, 12 as b, \'z\' as c"\nsqlite3 :memory: \'.mode box\' \'.width -4 3\' "select 1 as num, \'abcdef\' as s"\nsqlite3 :memory: \'.width 3\' \'.mode table\' "select \'abcdefg\' as a" \'.width\' "select \'abcdefg\' as a"\nsqlite3 -column -header :memory: \'.width -8\' "select \'ab\' as a"\nsqlite3 :memory: \'.width 4 -2 0\' .show | grep width'),
    ("symbolic links to a database, and -nofollow", "sqlite3 real.db 'create table t(x); insert into t values(1)'; ln -s real.db link.db\nsqlite3 link.db 'insert into t values(2)' 'select count(*) from t'; ls\nsqlite3 -nofollow link.db 'select 1' 2>e; echo rc=$?; cat e\nsqlite3 -nofollow real.db 'select count(*) from t'"),
    ("-version", "sqlite3 -version"),
    (".show", "sqlite3 :memory: .show '.headers on' '.mode csv' '.nullvalue -' .show"),
    ("functions and recursive CTEs",
     "sqlite3 :memory: 'with recursive c(x) as (select 1 union all select x+1 from c limit 5) "
     "select group_concat(x) from c' \"select upper('abc'), length('héllo'), "
     "printf('%05.1f', 3.14159), typeof(1), typeof(1.0), hex('A'), json_array(1,'a')\""),
    ("ATTACH of a file beside the database, and a temp table sorting",
     "sqlite3 m.db \"attach 'o.db' as o; create table o.t(x); insert into o.t values(2),(1)\"\n"
     "sqlite3 o.db 'select x from t order by x'"),
    ("a transaction rolled back leaves the file as it was",
     "sqlite3 tx.db 'create table t(x); insert into t values(1)'\n"
     "sqlite3 tx.db 'begin; insert into t values(2); rollback' 'select count(*) from t'\n"
     "printf 'begin;\\ninsert into t values(3);\\n' | sqlite3 tx.db; sqlite3 tx.db 'select count(*) from t'"),
]


def main():
    out = sys.stdout
    out.write("# sqlite3 (builtins/data/sqlite3): outputs recorded from SQLite 3.40.1's\n"
              "# shell on Debian 12 by tests/spec/record_sqlite3.py.\n")
    for name, code in CASES:
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(["bash", "-c", code], cwd=d, capture_output=True)
        if p.stderr:
            sys.stderr.write("case %r wrote to stderr: %r\n" % (name, p.stderr))
        so = p.stdout.decode()
        out.write("\n#### sqlite3: %s\n%s\n" % (name, code.rstrip("\n")))
        if so and not so.endswith("\n"):
            out.write("## stdout-json: %s\n" % json.dumps(so, ensure_ascii=False))
        else:
            out.write("## STDOUT:\n%s## END\n" % so)
        if p.returncode:
            out.write("## status: %d\n" % p.returncode)


main()

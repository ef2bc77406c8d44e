#!/usr/bin/env python3
"""Record bc and dc expectations for tests/unit/test_bc.c.

Generates a few hundred random bc programs (arithmetic at varied scales,
ibase/obase conversions, numbers long enough to wrap at 70 columns, -l
math functions) from a fixed seed, adds the hand-written bc and dc cases
below, runs each through the real GNU bc 1.07.1 / dc 1.4.1 of this machine
(apt-get install bc dc) and writes tests/unit/bc_cases.inc. Run it again
after changing the cases; the test itself never needs bc or dc.
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "bc_cases.inc")
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}

rnd = random.Random(14)


def num(maxint=12, maxfrac=8, neg=True):
    i = str(rnd.randint(0, 10 ** rnd.randint(0, maxint)))
    f = ""
    if maxfrac and rnd.random() < 0.6:
        f = "." + "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, maxfrac)))
        if rnd.random() < 0.3:
            i = "" if rnd.random() < 0.5 else "0"
    s = i + f
    if neg and rnd.random() < 0.3:
        s = "-" + s
    return s


def arith():
    lines = ["scale=%d" % rnd.choice([0, 0, 1, 2, 3, 5, 10, 20, 30])]
    for _ in range(rnd.randint(2, 5)):
        op = rnd.choice("+-*/%^qc")
        a, b = num(), num()
        if op == "^":
            e = str(rnd.randint(-6, 12))
            lines.append("(%s)^%s" % (num(6, 4), e))
        elif op == "q":
            lines.append("sqrt(%s)" % num(20, 10, neg=False))
        elif op == "c":
            lines.append("x=%s; y=%s; (x+y)*(x-y)/(%s); x%%(%s)" %
                         (a, b, num(4, 3), num(3, 2)))
        else:
            lines.append("(%s)%s(%s)" % (a, op, b))
    return "\n".join(lines) + "\n"


def digits_in(base, n):
    al = "0123456789ABCDEF"[:base]
    return "".join(rnd.choice(al) for _ in range(n))


def bases():
    lines = []
    ib = rnd.choice([2, 3, 8, 10, 16, 16, 7, 12])
    ob = rnd.choice([2, 8, 10, 16, 16, 3, 17, 25, 60, 100, 256, 1000, 12345])
    sc = rnd.choice([0, 2, 5, 10])
    lines.append("scale=%d" % sc)
    lines.append("obase=%d" % ob)
    for _ in range(rnd.randint(1, 3)):
        lines.append(num(15, 6))
    lines.append("ibase=%d" % ib if ib <= 10 else "ibase=%d" % ib)
    for _ in range(rnd.randint(1, 3)):
        s = digits_in(ib, rnd.randint(1, 12))
        if rnd.random() < 0.4:
            s += "." + digits_in(ib, rnd.randint(1, 5))
        lines.append(s)
    return "\n".join(lines) + "\n"


def longnum():
    k = rnd.choice([100, 233, 300, 500, 1000])
    b = rnd.choice([2, 3, 7, 13, 99])
    lines = ["%d^%d" % (b, k)]
    if rnd.random() < 0.5:
        lines.append("obase=%d" % rnd.choice([16, 2, 100, 7]))
        lines.append("%d^%d" % (b, k // 2))
    if rnd.random() < 0.5:
        lines.append("scale=%d" % rnd.randint(60, 150))
        lines.append("1/%d" % rnd.randint(3, 999))
    return "\n".join(lines) + "\n"


def mathlib():
    lines = ["scale=%d" % rnd.choice([20, 20, 0, 5, 10, 30, 45])]
    for _ in range(rnd.randint(1, 3)):
        f = rnd.choice("sclaej")
        if f == "e":
            x = num(1, 4)
        elif f == "l":
            x = num(6, 4, neg=rnd.random() < 0.1)
        elif f == "j":
            lines.append("j(%d, %s)" % (rnd.randint(-4, 6), num(1, 3)))
            continue
        else:
            x = num(2, 5)
        lines.append("%s(%s)" % (f, x))
    return "\n".join(lines) + "\n"


def generated():
    cases = []
    for _ in range(120):
        cases.append((["bc"], arith()))
    for _ in range(70):
        cases.append((["bc"], bases()))
    for _ in range(30):
        cases.append((["bc"], longnum()))
    for _ in range(90):
        cases.append((["bc", "-l"], mathlib()))
    return cases


# Hand-written programs: functions, arrays, control flow, strings, errors.
BC_HAND = [
    "define f(n){if(n<2)return(1);return(n*f(n-1))}\nf(30)\nf(5)+1\n",
    "define fib(n){auto a,b,t,i;a=0;b=1;for(i=0;i<n;i++){t=a+b;a=b;b=t};return(a)}\nfib(100)\n",
    "define s(a[],n){auto i,t;for(i=0;i<n;i++)t+=a[i];return(t)}\nfor(i=0;i<10;i++)x[i]=i*i\ns(x[],10)\nx[3]\n",
    "define g(a[]){a[0]=99;return(a[0])}\nz[0]=1\ng(z[])\nz[0]\n",
    "define v(){auto x;x=5;return}\nx=1\nv()\nx\n",
    "define h(x){x}\nh(7)\n",
    "i=0\nwhile(1){i=i+1;if(i==3)continue;if(i>6)break;i}\n",
    "for(i=10;i>0;i-=3)i\n",
    "if(1==1) 5 else 6\nif(0) 5 else 6\nif(2>3){7}\n",
    "1<2; 2<=2; 3>4; 4>=4; 5==5; 5!=5; !0; !5; 1&&0; 1||0; 0||0; 2&&3\n",
    "x=5; x+=2; x; x-=3; x; x*=4; x; x/=3; x; x%=3; x; x^=3; x\n",
    "x=1; x++; x; ++x; x--; --x; x\n",
    "a[5]=3; a[5]++; a[5]; ++a[5]; a[5]+=10; a[5]\n",
    "print \"a\\tb\\n\", 1.5, \"\\q\\\\\\n\"\n\"raw\\n\"\n",
    "\"one\"; \"two\n\"\n",
    "scale=5; last; 3; last; .; .+1\n",
    "length(123.456); length(0.0012); scale(10.50); scale(7); length(100)\n",
    "scale=4; sqrt(16); sqrt(2); sqrt(0.0001); sqrt(123456789)\n",
    "obase=16; -255; 4095.75; ibase=16; FF; A; 1A; obase=A; FF\n",
    "scale=3; 10/3; -10/3; 10%3; -10%3; 2^-3; (-2)^-3\n",
    "1/0\n2\n",
    "x=3; y=x%0\nx\n",
    "sqrt(-4)\n",
    "2^1.5\n",
    "f(3)\n",
    "define f(x){return(x/0)}\nf(2)\n",
    "a[-1]=2\n",
    "scale=-1\nibase=1\nobase=0\n",
    "1+\n5\n",
    ")\n",
    "1 +* 2\n3\n",
    "x = 1 @ 2\n",
    "1;quit\n2\n",
    "halt\n2\n",
    "5; halt; 6\n7\n",
    "return 5\n",
    "break\n",
    "/* comment */ 1 + 1 # another\n",
    "1234567890\\\n1234567890\n",
    "x=2^400\nx\nx/3\n",
    "limits\n",
    "obase=1000; 2^100; 0.5; -12.25\n",
    "obase=2; 0.1; scale=10; 0.1; 1/3\n",
    "ibase=16; obase=2; F.F; ibase=2; 1010.01\n",
    "define p(x){print x, \"\\n\"}\np(2); p(-1.50)\n",
    "define f(x){auto a[];a[1]=x;return(a[1]*2)}\nf(21)\n",
    "define f(){return(g())}\ndefine g(){return(42)}\nf()\n",
    "define f(x,y){return(x-y)}\nf(1)\n",
    "define f(x[]){return(1)}\nf(2)\n",
    "{ 1; 2\n3 }\n",
    "for(;;){if(++i>3)break;i}\n",
    "s(0); c(0); a(0); l(1); e(0)\n",
    "x=1 $\nx\n",
    "1 @@ + 2\n3\n",
    "\"abc\n5\n",
    "define f(x)\n{\n  return (x*2)\n}\nf(4)\n",
    "i=0; while (i < 3) i++\n",
    "if (1) 5\nelse 6\n",
    "(x=3)\nx = -2; -x; --x; x\n",
    "print -1.5, \" \", -0.25, \"\\n\"\n",
    "obase=17; 123456789; obase=37; -123.456\n",
    "(-0)^-3\n",
    "define f(x,y[]){return(1)}\nf(2)\n",
    "1+2\r\n3\n",
    "1\x01+\x7f2\n",
    "1\xc3\xa9+2\n4\n",
    "x = 010; x; .5 + .5; 0.1 + 0.2 == 0.3; length(-123.4)\n",
]

BC_HAND_L = [
    "s(1); c(1); a(1); l(2); e(1); j(1,1)\n",
    "scale=60; 4*a(1)\n",
    "scale=70; e(1)\n",
    "l(0); l(-5)\n",
    "e(-100); e(30)\n",
    "scale; ibase; obase\n",
    "obase=16; a(1)*4\n",
    "j(0, 10); j(10, 2)\n",
]

DC_HAND = [
    "1 2 + p\n",
    "2 3 4 f\n",
    "_1.5 p 16o 255p [abc]p 5 k 1 3/p 3v p z p c z p\n",
    "1 0/ p\n",
    "p\n",
    "_1 v\n",
    "la p\n",
    "Lb\n",
    "[abc]p [x]n 10 P\n",
    "65 P [hi]P 10 P\n",
    "20 k 2 v p\n",
    "0 k 1 i\n",
    "17 i\n",
    "1 o\n",
    "16 o 255 p 1000 o 123456 p\n",
    "2 100 ^ p 2 300 ^ p 2 1000 ^ p\n",
    "1.234 X p Z p [hello] Z p X p\n",
    "[[inner]p q [after]p]x [top]p\n",
    "[[[x]p q]x [after]p]x [top]p\n",
    "3 5 [[lt]p]sa <a 5 3 <a\n",
    "65 a p 16706 a p [xyz] a p\n",
    "5 4 % p 7 3 ~ f\n",
    "2 3 4 | p _5 1 3 | p\n",
    "K p I p O p\n",
    "#comment\n5 p\n",
    "@\n",
    "Q\n",
    "1 sa 2 Sa la p La p la p\n",
    "0 Q\n",
    "9 _3 / p 3 k 9 7 / p _.5 p 0.000 p\n",
    "10 Q 1p\n",
    "1 2 3 c f\n",
    "2.5 1 ^ p 2 _1 ^ p 2.5 0.5 ^ p\n",
    "x\n",
    "q\n",
    "1p q 2p\n",
    "[1p]sa [2p]sb 1 2 >a 2 1 >a 1 2 !>b 2 2 !<b 1 1 =a 1 2 !=a\n",
    "[]p\n",
    "10 k 1 3 / p 3 * p\n",
    "A p 10 i A p AB p\n",
    "16 i FF p 1F.8 p\n",
    "2 20 o 100 p\n",
    "1 2 3 4 5 f r f\n",
    "12.345 k K p\n",
    "_1 k\n",
    "1 2 [ab] +\n",
    "0 Zp 0.00 Zp .001 Zp\n",
    "? 1 2 + p\n5 p\n",
    "[d 1 - d 0 <a]sa 1000 la x f\n",
    "1 [d p 1 + d 10 >a]sa la x\n",
    "[[d]sb]sa 5 lax lbx f\n",
    "2 k 1 3 / 3 * 1 + p\n",
    "2 o 10 p 0.5 p\n",
    "5 3 :a 3 ;a p 4 ;a p _1 ;a p [s] 2 :a 2;a p 1 _2 :a f\n",
    "1 2 3 4 + + + p 10 2 - p 3 2 * p\n",
    "_3 2 % p _3.5 2 / p 5 k _1 3 / p\n",
]


def run(argv, prog):
    r = subprocess.run(argv, input=prog.encode(), capture_output=True, env=ENV)
    return r.returncode, r.stdout, r.stderr


def cstr(b):
    out = '"'
    prev_hex = False
    for ch in b:
        c = chr(ch)
        if c == '\\': s = '\\\\'
        elif c == '"': s = '\\"'
        elif c == '\n': s = '\\n'
        elif c == '\t': s = '\\t'
        elif 32 <= ch < 127:
            s = c
            if prev_hex and c in '0123456789abcdefABCDEF':
                s = '""' + c
            if c == '?' and out.endswith('?'):
                s = '""?'
        else:
            s = '\\x%02x' % ch
        prev_hex = s.startswith('\\x')
        out += s
    return out + '"'


def table(name, cases):
    rows = []
    for argv, prog in cases:
        st, out, err = run(argv, prog)
        args = ", ".join(cstr(a.encode()) for a in argv)
        rows.append("    BH_CASE(%s, %d,\n            %s,\n            %s,\n            %s),"
                    % (cstr(prog.encode()), st, cstr(out), cstr(err), args))
    return "static const bh_case %s[] = {\n%s\n};\n" % (name, "\n".join(rows))


def main():
    ver = subprocess.run(["bc", "--version"], capture_output=True, text=True).stdout
    if "bc 1.07.1" not in ver:
        sys.exit("record_bc.py: needs GNU bc 1.07.1 (found: %s)" % ver.split("\n")[0])
    parts = ["/* Generated by tests/unit/record_bc.py from GNU bc 1.07.1 and dc 1.4.1:",
             " * do not edit. */"]
    parts.append(table("bc_generated", generated()))
    parts.append(table("bc_hand", [(["bc"], p) for p in BC_HAND] +
                       [(["bc", "-l"], p) for p in BC_HAND_L]))
    parts.append(table("dc_hand", [(["dc"], p) for p in DC_HAND]))
    with open(OUT, "w") as f:
        f.write("\n".join(parts))


if __name__ == "__main__":
    main()

z=zz
zz=
echo ${!z:=foo}
echo ${!z:=bar}

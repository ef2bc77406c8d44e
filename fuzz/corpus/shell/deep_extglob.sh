shopt -s extglob
x=aaab; echo ${x##+(a)} ${x/@(a|b)/X} ${x//?(a)b/Y}
[[ abab == +(ab) ]] && echo y
case foo in !(bar)) echo no-bar;; esac
[[ aaaa == +(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(+(a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) ]] && echo deep
[[ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab == *(*(a)|a)c ]]; echo $?
shopt -s globstar nullglob dotglob; echo /tmp/**/*(.x) /bin/@(ca|e)*

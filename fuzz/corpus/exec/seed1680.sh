echo \*.sh

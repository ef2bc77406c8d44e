compgen -A helptopic -S ___ fal

cat <<< 'hi'

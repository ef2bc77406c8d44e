echo -e 'abcd\x65f'

echo word_a && echo word_b || echo

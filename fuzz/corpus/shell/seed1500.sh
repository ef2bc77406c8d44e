while false; do
done
echo empty

echo "[$unset]"
set -u
echo "[$unset]"
echo end  # never reached

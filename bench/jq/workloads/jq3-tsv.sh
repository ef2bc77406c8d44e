jq -r '.[] | @tsv' rows.json

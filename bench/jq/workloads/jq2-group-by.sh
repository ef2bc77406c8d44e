jq -s 'group_by(.user) | map({user: .[0].user, n: length})' events.jsonl

jq -c 'select(.status=="error") | {id, ts}' events.jsonl

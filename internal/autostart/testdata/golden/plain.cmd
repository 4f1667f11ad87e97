"/usr/bin/elicitdesk" --hidden

"/opt/My Apps/Elicit Desk 100%/elicitdesk" "--title=Say \"hi\"" 50% $HOME "C:\Program Files\x\\" "" it's a<b>&c

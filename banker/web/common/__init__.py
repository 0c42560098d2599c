"""What every blueprint of the web app may use: leaf modules that import no blueprint.

The store handle (`store`), the answers of a refusal (`errors`, and the one error page in
`guards`), who is asking (`seats`, the one place a token is read), links and public URLs
(`links`), how the pages say things (`present`, `deeds`, `choices`, `trade`, `board_picture`,
`charts`), forms into commands (`forms`), a JSON command run for a token (`commands`), the
template globals that read the store (`template_globals`), and what wraps every request
(`limits`, `hygiene`, `fastpoll`); `qr` draws QR codes.
"""

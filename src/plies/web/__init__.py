"""The web app (extra ``web``: FastAPI and uvicorn): the tree exercises, games in the browser
with their search shown live, and Connect Four and chess analysis.

Like the CLI it only parses, calls the library and formats. :func:`plies.web.app.create_app`
builds the application; ``plies serve`` runs it with uvicorn. Importing this package imports
no FastAPI, so the core works without the extra.
"""

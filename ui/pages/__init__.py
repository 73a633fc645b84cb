"""The app's pages: scripts that ``st.navigation`` in ``app.py`` runs, one per page."""

"""The Flask server behind `tilecast serve`: `app.create_app` builds it (see docs/api.md)."""

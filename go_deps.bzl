"""Go module dependencies for WORKSPACE mode, kept in sync with go.mod by gazelle update-repos."""

def go_dependencies():
    pass

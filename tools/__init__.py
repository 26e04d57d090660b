"""Scripts run from the repository (not part of the tagcrawl package): doc generators."""

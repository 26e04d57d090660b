"""The stream side: the ingestion endpoint and the browser tag."""

"""The shared machinery, written once and used by several tracks: metrics (spans, multi-label, LCS),
per-item statistics and their aggregation, tokenization, public-input and sample-text helpers, the
article-folder and meme-file families. Knows no track; imports only the readers layer."""

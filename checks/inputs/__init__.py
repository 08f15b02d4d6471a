"""What the checker reads besides the live system: files named on the command line.

Snapshots (``--collect`` / ``--from``), ``python -m torch.utils.collect_env``
pastes (``--from-collect-env``) and DeepSpeed configs (``--deepspeed-config``),
each read with size limits and reported as one clear line when malformed.
"""

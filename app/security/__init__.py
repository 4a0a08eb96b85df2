"""What every request passes through: response headers, proxy and host trust, the client's
address, secret tokens and keeping them out of logs, and a provider's webhook read on its raw
bytes."""

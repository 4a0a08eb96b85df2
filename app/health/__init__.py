"""The site's own health: owed work found again on a schedule, and staff told, once per fault,
when a part fails (Redis, the worker, the disk, the mail relay). `flask leads health check`,
which deploy/watchbuyers-health.timer runs every minute, does both."""

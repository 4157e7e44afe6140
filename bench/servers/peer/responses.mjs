// The response envelope of api-contract.md §1, for Express.

export function sendData(res, data, status = 200) {
  res.status(status).json({ type: "success", status, data });
}

export function sendError(res, status, message, errors) {
  res.status(status).json(errors ? { type: "error", status, message, errors } : { type: "error", status, message });
}

export function sendInvalid(res, errors) {
  sendError(res, 422, "The given data was invalid.", errors);
}

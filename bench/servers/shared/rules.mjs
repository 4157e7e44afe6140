// The request rules of the benchmarked endpoints, as specs/patient.yaml and the login form state
// them, with the service's messages.

const digits11 = /^[0-9]{11}$/;
// ajv-formats' "email" (full mode), which the service's login validator uses.
const email = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export const patientCreateRules = {
  name: {
    required: true,
    maxLength: 120,
    minLength: 1,
    messages: {
      required: "The name field is required.",
      null: "The name field is required.",
      type: "The name field must be a string.",
      maxLength: "The name field must not be greater than 120 characters.",
      minLength: "The name field is required.",
    },
  },
  cpf: {
    required: true,
    minLength: 1,
    pattern: digits11,
    messages: {
      required: "The cpf field is required.",
      null: "The cpf field is required.",
      type: "The cpf field must be a string.",
      minLength: "The cpf field is required.",
      pattern: "The cpf field must be 11 digits.",
    },
  },
  phone: {
    nullable: true,
    maxLength: 20,
    messages: {
      type: "The phone field must be a string.",
      maxLength: "The phone field must not be greater than 20 characters.",
    },
  },
};

export const patientUpdateRules = {
  name: {
    maxLength: 120,
    messages: {
      null: "The name field must be a string.",
      type: "The name field must be a string.",
      maxLength: "The name field must not be greater than 120 characters.",
    },
  },
  cpf: {
    pattern: digits11,
    messages: {
      null: "The cpf field must be a string.",
      type: "The cpf field must be a string.",
      pattern: "The cpf field must be 11 digits.",
    },
  },
  phone: patientCreateRules.phone,
};

export const loginRules = {
  email: {
    required: true,
    maxLength: 255,
    format: email,
    messages: {
      required: "The email field is required.",
      null: "The email field is required.",
      type: "The email field must be a string.",
      format: "The email field must be a valid email address.",
      maxLength: "The email field must not be greater than 255 characters.",
    },
  },
  password: {
    required: true,
    minLength: 1,
    maxLength: 1024,
    messages: {
      required: "The password field is required.",
      null: "The password field is required.",
      type: "The password field must be a string.",
      minLength: "The password field is required.",
      maxLength: "The password field must not be greater than 1024 characters.",
    },
  },
};

export const cpfTaken = "The cpf has already been taken.";
